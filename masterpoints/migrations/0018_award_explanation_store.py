"""Award explanations get their own tables: a group's shared scale once, each award's own part (issue 16)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('masterpoints', '0017_office_case'),
    ]

    operations = [
        migrations.CreateModel(
            name='AwardExplanation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('own', models.JSONField(blank=True, default=dict)),
            ],
            options={
                'verbose_name': 'award explanation',
                'verbose_name_plural': 'award explanations',
            },
        ),
        migrations.CreateModel(
            name='AwardScale',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('data', models.JSONField()),
            ],
            options={
                'verbose_name': 'award scale',
                'verbose_name_plural': 'award scales',
            },
        ),
        migrations.AddField(
            model_name='award',
            name='explanation_ref',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='awards', to='masterpoints.awardexplanation'),
        ),
        migrations.AddField(
            model_name='awardexplanation',
            name='scale',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='explanations', to='masterpoints.awardscale'),
        ),
    ]
