"""Sample compression by boosting (thesis ch. 4): weighted quantiles, MedBoost, Sparsify,
compression schemes.
"""
