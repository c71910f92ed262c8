"""Many tables at one event, meeting on an MQTT broker.

Each table's Pi publishes its *public* state under ``<prefix>/<table>/...`` (see
:mod:`companion.mqtt.topics`); any computer that reaches the broker shows every table at
once (:mod:`companion.mqtt.board`, ``companion board``). The broker is a guest: losing it
never stops a game, and a table catches up by republishing its last state when it returns.
"""
