"""Universal consistency of the seed-000 learners: the plug-in bound exactly, trends in n with
exact risks.
"""
