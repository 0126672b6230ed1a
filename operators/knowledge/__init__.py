"""What the managers keep for the support team: help articles the AI answers from, canned
replies operators start from, and the gaps the AI could not answer yet."""
