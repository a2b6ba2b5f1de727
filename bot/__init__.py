"""Fieldpost front ends: use-cases, store, pictures, Discord adapter and console."""
