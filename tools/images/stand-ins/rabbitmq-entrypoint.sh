#!/bin/sh
# As the official rabbitmq image: the user RABBITMQ_DEFAULT_USER with RABBITMQ_DEFAULT_PASS (made on the first start
# with an empty /var/lib/rabbitmq), then the server in the foreground as the rabbitmq user. RABBITMQ_NODE_PORT,
# ERL_EPMD_PORT and RABBITMQ_DIST_PORT move its ports where the defaults are taken (host networking).
set -eu
cat > /etc/rabbitmq/rabbitmq.conf <<CONF
default_user = ${RABBITMQ_DEFAULT_USER:-guest}
default_pass = ${RABBITMQ_DEFAULT_PASS:-guest}
loopback_users = none
CONF
chown -R rabbitmq:rabbitmq /var/lib/rabbitmq
exec setpriv --reuid=rabbitmq --regid=rabbitmq --init-groups env HOME=/var/lib/rabbitmq /usr/lib/rabbitmq/bin/rabbitmq-server
