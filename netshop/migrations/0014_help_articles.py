"""Help articles replace the FAQ entries (issue 27): each FAQ entry becomes a published
version 1 of an article, once.

An entry's Japanese and English rows become one article when the demo's articles file
(``netshop/demo/articles.json``) knows the pair by its titles, which gives the key and topic
tags; any other entry becomes an article of its own, keyed ``faq-<id>``, with no tags (a
manager tags it in the console). No audit entry: the chain records what people and the AI do,
and this is the schema moving under the same content.
"""

import json
from pathlib import Path

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


ARTICLES_FILE = Path(__file__).resolve().parents[1] / "demo" / "articles.json"


def _known_articles():
    """(language, title) -> the demo file's article it belongs to."""
    if not ARTICLES_FILE.exists():
        return {}
    document = json.loads(ARTICLES_FILE.read_text(encoding="utf-8"))
    return {
        (language, article[language]["title"]): article
        for article in document["articles"]
        for language in ("ja", "en")
        if language in article
    }


def faq_to_articles(apps, schema_editor):
    FaqEntry = apps.get_model("netshop", "FaqEntry")
    HelpArticle = apps.get_model("netshop", "HelpArticle")
    ArticleVersion = apps.get_model("netshop", "ArticleVersion")
    known = _known_articles()
    for entry in FaqEntry.objects.order_by("pk"):
        spec = known.get((entry.language, entry.question))
        key = spec["key"] if spec else f"faq-{entry.pk}"
        article, _ = HelpArticle.objects.get_or_create(
            key=key,
            defaults={"category": entry.category, "tags": spec["tags"] if spec else []},
        )
        if ArticleVersion.objects.filter(article=article, language=entry.language).exists():
            continue
        ArticleVersion.objects.create(
            article=article,
            language=entry.language,
            number=1,
            title=entry.question,
            body=entry.answer,
            status="published",
            published_at=article.created_at,
        )


class Migration(migrations.Migration):

    dependencies = [
        ('netshop', '0013_operators_without_ledgers'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ArticleVersion',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('language', models.CharField(choices=[('ja', '日本語'), ('en', 'English')], max_length=2)),
                ('number', models.PositiveIntegerField(help_text='1, 2, ... per article and language.')),
                ('title', models.CharField(max_length=300)),
                ('body', models.TextField()),
                ('questions', models.JSONField(blank=True, default=list, help_text='Other ways customers ask this question; searched with the title.')),
                ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published')], default='draft', max_length=10)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('published_at', models.DateTimeField(blank=True, null=True)),
                ('created_by', models.ForeignKey(blank=True, help_text='Empty: written by the system (an import from a file).', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('published_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'article version',
                'verbose_name_plural': 'article versions',
                'ordering': ['article', 'language', 'number'],
            },
        ),
        migrations.CreateModel(
            name='HelpArticle',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.SlugField(max_length=80, unique=True)),
                ('category', models.CharField(choices=[('returns', 'Returns'), ('delivery', 'Delivery'), ('payment', 'Payment'), ('account', 'Account'), ('coupons', 'Coupons'), ('orders', 'Orders'), ('other', 'Other')], max_length=12)),
                ('tags', models.JSONField(blank=True, default=list, help_text='Topic tags (netshop.knowledge.tags): what the article is about.')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('updated_at', models.DateTimeField(default=django.utils.timezone.now)),
            ],
            options={
                'verbose_name': 'help article',
                'verbose_name_plural': 'help articles',
                'ordering': ['category', 'key'],
            },
        ),
        migrations.AddField(
            model_name='articleversion',
            name='article',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='versions', to='netshop.helparticle'),
        ),
        migrations.AddConstraint(
            model_name='articleversion',
            constraint=models.UniqueConstraint(fields=('article', 'language', 'number'), name='article_version_number'),
        ),
        migrations.AddConstraint(
            model_name='articleversion',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'draft')), fields=('article', 'language'), name='article_one_draft'),
        ),
        migrations.RunPython(faq_to_articles, migrations.RunPython.noop),
        migrations.DeleteModel(
            name='FaqEntry',
        ),
    ]
