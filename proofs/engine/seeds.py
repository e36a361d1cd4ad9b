"""The seed papers, by the file names citations use (``<seed>:L<line> (<theorem>)``).

The files are the plain-text copies in ``../shared/seeds/`` beside the repository; a clone
without them still runs everything (only the check that citations point into the files is
skipped).
"""

from __future__ import annotations

#: Bousquet, Kaplan, Kontorovich, Mansour, Moran, Sadigurschi, Stemmer, "Differentially-Private
#: Bayes Consistency" (2022): PCL, PCDE, the stability histogram, PCL2/PCL2b, semi-supervised.
BAYES_CONSISTENCY = "000_dff3c4dc97cf0e21.txt"
#: Sadigurschi, PhD thesis "A Study of Privacy and Compression in Learning Theory": ch. 4
#: compression, ch. 5 rectangles, ch. 7 adaptive data analysis.
THESIS = "002_9f3104e4a0d86722.txt"
#: Berrett, Györfi, Walk, "Strongly universally consistent nonparametric regression and
#: classification with privatised data", EJS 2021: the local randomiser.
LDP_REGRESSION = "003_5e2a1f46235ac29b.txt"
#: Chaudhuri, Hsu, "Sample Complexity Bounds for Differentially Private Learning", COLT 2011.
CHAUDHURI_HSU = "004_2f105cca2f6050df.txt"

SEEDS = {
    BAYES_CONSISTENCY: "BAYES_CONSISTENCY",
    THESIS: "THESIS",
    LDP_REGRESSION: "LDP_REGRESSION",
    CHAUDHURI_HSU: "CHAUDHURI_HSU",
}
