"""The server process: configuration, the gRPC server, workers, TLS, the accelerator, probes."""
