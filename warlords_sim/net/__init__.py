"""Network play: one host owns the game, players join from their own machines.

* :mod:`.protocol` - the versioned wire messages (msgspec), no sockets;
* :mod:`.state` - the host's settled state in full, for a client whose
  re-simulation differed;
* :mod:`.host` - ``warlords-sim host``: the game server (websockets,
  asyncio). It checks every action with the rules, simulates it with the
  same controller as ``play`` (hands, bots, recording) and sends each
  action as it begins and its replay line once settled;
* :mod:`.client` - ``warlords-sim join``: a controller that re-simulates
  every action the host sends and checks the host's digest, driving the
  play window (:mod:`warlords_sim.gui.app`) or a headless bot.

Contract: the host is the only authority. A client never applies its own
action; it sends it and plays what the host sends back, so every window
shows the host's game and the host's replay is the game. Only this layer
imports websockets.
"""
