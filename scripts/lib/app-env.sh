# Sourced by scripts/run and scripts/manage (not run on its own): the environment both give
# the app, so a management command sees the shape, SECRET_KEY and hosts the server sees.
#
#   shape        production when DATABASE_URL and REDIS_URL are both set, else embedded
#   DEBUG        off in both shapes unless set: DEBUG=1 is the explicit opt-in to Django's
#                debug pages (an unknown URL lists every URL pattern, an error shows the
#                settings), never a default. What the embedded shape needs to run on one
#                machine comes without it: the keys below, made in var/, and the local hosts.
#   SECRET_KEY   without DEBUG and without SECRET_KEY: $NETSHOP_VAR_DIR/secret_key (default
#                var/), generated once (mode 600, ignored by git) and reused on later runs
#   NETSHOP_AUDIT_KEY in the production shape or without DEBUG: $NETSHOP_VAR_DIR/audit_key,
#                generated once (mode 600) like the secret key
#   ALLOWED_HOSTS without DEBUG: the local names unless set
#
# Expects the repository root as the working directory and PY (the venv's python).
# Sets: shape, var_dir; exports DEBUG, SECRET_KEY, NETSHOP_AUDIT_KEY, ALLOWED_HOSTS as described.

if [ -n "${DATABASE_URL:-}" ] && [ -n "${REDIS_URL:-}" ]; then
  shape=production
else
  shape=embedded
fi
export DEBUG=${DEBUG:-0}

debug_on() { case ${DEBUG,,} in 1 | true | yes | on) return 0 ;; *) return 1 ;; esac; }

# Without DEBUG the settings insist on a real SECRET_KEY: make one once, keep it out of git.
var_dir=${NETSHOP_VAR_DIR:-var}
if [ -z "${SECRET_KEY:-}" ] && ! debug_on; then
  mkdir -p "$var_dir"
  if [ ! -s "$var_dir/secret_key" ]; then
    (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))' >"$var_dir/secret_key")
  fi
  chmod 600 "$var_dir/secret_key"
  SECRET_KEY=$(cat "$var_dir/secret_key")
  export SECRET_KEY
fi
# The audit chain's HMAC key, the same way: generated once into var/, never in the database.
if [ -z "${NETSHOP_AUDIT_KEY:-}" ] && { [ "$shape" = production ] || ! debug_on; }; then
  mkdir -p "$var_dir"
  if [ ! -s "$var_dir/audit_key" ]; then
    (umask 077 && "$PY" -c 'import secrets; print("local:" + secrets.token_urlsafe(32))' \
      >"$var_dir/audit_key")
  fi
  chmod 600 "$var_dir/audit_key"
  NETSHOP_AUDIT_KEY=$(cat "$var_dir/audit_key")
  export NETSHOP_AUDIT_KEY
fi
if ! debug_on; then
  export ALLOWED_HOSTS=${ALLOWED_HOSTS:-localhost,127.0.0.1,[::1]}
fi
