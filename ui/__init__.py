"""App-side helpers shared by the pages (session state, rendering).

Never imported by encoding_core.
"""
