"""A tiny module for the agent transcripts: `add` has a bug the agents fix."""


def add(a, b):
    return a - b
