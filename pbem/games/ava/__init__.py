"""A Victory Awaits and Fierce Fight! Smolensk Blitzkrieg: one engine, two rule profiles (see profile.py)."""
