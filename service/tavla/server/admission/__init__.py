"""Admission: which thread runs a call, how many run at once, and how long one may take."""
