"""Conversions between tavla.v1 messages and core values, and the fast wire encoders."""
