"""Fieldpost bot.store."""
