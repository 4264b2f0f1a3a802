"""What wraps every call: error mapping, access logs, metrics, tracing."""
