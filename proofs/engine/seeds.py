"""The seed papers, by the file names citations use (``<seed>:L<line> (<theorem>)``).

The files are the plain-text copies in ``../shared/seeds/`` beside the repository. Their line
counts and SHA-256 digests are recorded here (:data:`SEED_FILES`), so every clone checks that
citations point inside the files, and a clone with the folder checks that it holds these files.
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

#: (line count, SHA-256) of each seed file: citations are checked against the line counts.
SEED_FILES: dict[str, tuple[int, str]] = {
    "000_dff3c4dc97cf0e21.txt": (
        661,
        "93253c0e286046a4e66fb1081eae4b2ef006ece23335617c03422316a0c2f4dc",
    ),
    "002_9f3104e4a0d86722.txt": (
        2737,
        "feda9b8c05639b6d201ad75f7def590be4f24bca1c5f3f1329bd80b99e2ee9ea",
    ),
    "003_5e2a1f46235ac29b.txt": (
        758,
        "fc80139db20f90889e89410cf3f2024c021d8acda359cd306398ac502ea6b85b",
    ),
    "004_2f105cca2f6050df.txt": (
        890,
        "7b65fcd5c073cbd30726b19f1740a4d3e2ed28562d99ca1949de4b4c2dec1d21",
    ),
}
