"""Sample compression by boosting (seed 002, ch. 4): MedBoost, Sparsify, compression schemes."""
