"""The servicers: each RPC converts its request, calls the core, converts back."""
