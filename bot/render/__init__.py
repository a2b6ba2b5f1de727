"""Fieldpost bot.render."""
