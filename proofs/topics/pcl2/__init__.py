"""PCL2 and PCL2b, private partition learners over public packings (seed 000, App. A)."""
