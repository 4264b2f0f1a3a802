"""Tests of the tavla-family variants: the independent reference, its fixtures, and differential tests."""
