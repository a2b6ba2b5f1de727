"""Fieldpost bot.console."""
