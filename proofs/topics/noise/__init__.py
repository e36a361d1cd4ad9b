"""The exact samplers' laws (``dpspec.noise``), enumerated from the code that runs (see
``note.md``)."""
