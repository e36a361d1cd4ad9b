"""PCDE, the private histogram density estimator (seed 000, Alg 3, Thm 4.2-4.3), and the idealised
histograms.
"""
