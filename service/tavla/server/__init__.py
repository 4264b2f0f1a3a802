"""The gRPC layer of tavla-engine, in folders by job (docs/architecture.md): :mod:`api` (one
servicer per service, the service catalogue), :mod:`convert` (messages to core values and back),
:mod:`http` (Connect and gRPC-Web), :mod:`admission` (threads, limits), :mod:`pipeline` (error
mapping, logs, metrics, tracing) and :mod:`process` (configuration, the server, workers, TLS).
The rules live in :mod:`tavla.core`; nothing here decides a rule."""
