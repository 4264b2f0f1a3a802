"""tavla-engine: the rules of Turkish tavla and international backgammon, as a library and a
stateless gRPC service. The rules core is :mod:`tavla.core`."""

__version__ = "1.0.0"
