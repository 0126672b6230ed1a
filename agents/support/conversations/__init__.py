"""Conversations: the messages of an inquiry's thread, who owns it, and when the AI answers."""
