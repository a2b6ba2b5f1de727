"""Fieldpost's rules engine: pure functions over one pydantic game state."""
