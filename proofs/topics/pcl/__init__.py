"""PCL, the private histogram classifier (seed 000, Alg 2, Thm 3.1)."""
