"""The machinery the topics share: the registry and its discovery (``registry``), exact
enumeration (``exact``), statistical tests (``stats``, ``conformance``), differential bindings
(``bindings``), CrossHair (``crosshair``), the verify runner (``verify``), mutation testing
(``mutation``) and the guarantee report (``report``)."""
