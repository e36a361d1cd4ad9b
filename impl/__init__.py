"""dpspec.impl: the algorithms of the seed papers, vectorised with numpy.

Randomness only through a passed-in ``numpy.random.Generator`` (or a model's ``random_state``);
default samplers are exact (integer-only, ``dpspec.impl.noise``), the papers' continuous-noise
versions are available as ``idealised=True`` / ``noise="laplace"`` and say so in ``privacy``.
Subpackages: ``mechanisms`` (Laplace, discrete Laplace, exponential, randomized response,
stability histogram, noisy majority) and ``learners`` (PCL, PCDE, PCL2, PCL2b, semi-supervised).
"""
