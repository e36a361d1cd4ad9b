"""Private semi-supervised learning (seed 000, Sec 4.1, Thm 4.10-4.11)."""
