"""The privacy accountant (``dpspec.accounting``): exact privacy loss distributions of finite
laws against the enumerated hockey-stick divergence of the product laws, closed forms (see
``note.md``)."""
