"""The shop's help articles: what the AI answers general questions from, kept by managers.

- ``models``: ``HelpArticle`` (one topic, its category and topic tags) and ``ArticleVersion``
  (its text in one language: drafts, and every published version kept);
- ``services``: create, describe, save a draft, publish (each audited);
- ``selectors``: the live versions, an article's history, the knowledge stamp;
- ``files``: the import/export file format (``manage.py articles export|import``);
- ``retrieval``: finding the article for a question (BM25 and concepts), rebuilt on publish;
- ``tokens``, ``concepts``, ``tags``: the terms, the customer-word lexicon, the topic tags.
"""
