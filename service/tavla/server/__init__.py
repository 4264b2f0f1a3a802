"""The gRPC layer of tavla-engine: conversions (:mod:`convert`), error mapping (:mod:`errors`),
the servicer (:mod:`servicer`) and the server process (:mod:`app`). The rules live in
:mod:`tavla.core`; nothing here decides a rule."""
