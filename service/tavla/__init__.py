"""tavla-engine: the rules of Turkish tavla and international backgammon, as a library and a
stateless gRPC service. The rules core is :mod:`tavla.core`.

``tavla`` is shared with the rules distribution, tavla-rules (service/pyproject.toml), which
ships :mod:`tavla.core`, and the client distribution, tavla-engine-client (clients/python), which
ships :mod:`tavla.client` and the generated stubs :mod:`tavla.v1`; neither ships a
``tavla/__init__.py``. Installed side by side they share one directory; from a clone (editable
installs, or ``PYTHONPATH=service:clients/python/src``) :mod:`tavla.core` is in this one and the
client's ``tavla`` directory is another entry of this package's ``__path__``.
"""

from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)

__version__ = "1.0.0"
