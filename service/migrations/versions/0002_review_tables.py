"""review tables: reviewers, sessions, claims, audit

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 05:09:02.943687
"""

from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('reviewers',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('team_id', sa.String(length=36), nullable=False),
    sa.Column('email', sa.String(length=320), nullable=False),
    sa.Column('password_hash', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('disabled', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('email')
    )
    with op.batch_alter_table('reviewers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_reviewers_team_id'), ['team_id'], unique=False)

    op.create_table('review_sessions',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('reviewer_id', sa.String(length=36), nullable=False),
    sa.Column('csrf_token', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['reviewer_id'], ['reviewers.id'], ),
    sa.PrimaryKeyConstraint('token_hash')
    )
    with op.batch_alter_table('review_sessions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_review_sessions_reviewer_id'), ['reviewer_id'], unique=False)

    op.create_table('review_audit',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('job_id', sa.String(length=36), nullable=False),
    sa.Column('team_id', sa.String(length=36), nullable=False),
    sa.Column('actor', sa.String(length=36), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('action', sa.String(length=20), nullable=False),
    sa.Column('result_index', sa.Integer(), nullable=True),
    sa.Column('field', sa.String(length=64), nullable=True),
    sa.Column('before_json', sa.Text(), nullable=True),
    sa.Column('after_json', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['job_id'], ['jobs.id'], ),
    sa.ForeignKeyConstraint(['team_id'], ['teams.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('review_audit', schema=None) as batch_op:
        batch_op.create_index('ix_review_audit_job', ['job_id', 'id'], unique=False)
        batch_op.create_index(batch_op.f('ix_review_audit_team_id'), ['team_id'], unique=False)

    op.create_table('review_claims',
    sa.Column('job_id', sa.String(length=36), nullable=False),
    sa.Column('reviewer', sa.String(length=36), nullable=False),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['job_id'], ['jobs.id'], ),
    sa.PrimaryKeyConstraint('job_id')
    )


def downgrade() -> None:
    op.drop_table('review_claims')
    with op.batch_alter_table('review_audit', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_review_audit_team_id'))
        batch_op.drop_index('ix_review_audit_job')

    op.drop_table('review_audit')
    with op.batch_alter_table('review_sessions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_review_sessions_reviewer_id'))

    op.drop_table('review_sessions')
    with op.batch_alter_table('reviewers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reviewers_team_id'))

    op.drop_table('reviewers')
