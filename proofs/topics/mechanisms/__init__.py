"""Basic mechanisms (seed 000 Sec 2, thesis Sec 3.2): Laplace, discrete Laplace, exponential,
randomized response, stability histogram, noisy majority, the exact samplers.
"""
