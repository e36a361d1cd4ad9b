"""DP-SGD (``dpspec.learners.dpsgd``): the replay bracket, the reference accountant and the
statistical lower bound on a pair of fixed gradients, Poisson against shuffled batches (see
``note.md``)."""
