"""Fieldpost bot.discord."""
