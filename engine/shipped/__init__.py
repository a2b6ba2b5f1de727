"""The content shipped with Fieldpost: `assets/` (soldiers, cards, tiles, fonts …) and
`campaigns/` beside this file.

In a checkout they are links to the repository's own assets/ and campaigns/; a built wheel
holds copies, so an installed Fieldpost finds its content wherever it is installed
(`engine.content.default_root`, FIELDPOST_HOME overriding it).
"""
