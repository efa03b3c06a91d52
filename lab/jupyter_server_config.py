"""The course's JupyterLab server settings (``make lab``, ``make lab-slides`` and the browser tests load them).

Kernel messages reach the browser without waiting: jupyter_server leaves Nagle's algorithm on for the
kernel's websocket, so the second and later of the small messages a widget click sends back (the
score after the kernel's "busy") waited in the server until the browser acknowledged the first, which
Linux delays by up to 40 ms. In the real-browser test that made click -> score bimodal, about 15 or
about 55 ms; with TCP_NODELAY the slow mode is gone.
"""

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection


class NoDelayConnection(ZMQChannelsWebsocketConnection):
    """The kernel websocket connection with TCP_NODELAY: each message leaves as soon as it is written."""

    def connect(self):  # type: ignore[no-untyped-def]
        """Turn Nagle's algorithm off, then connect as usual."""
        self.websocket_handler.set_nodelay(True)
        return super().connect()


c = get_config()  # type: ignore[name-defined]  # noqa: F821 - provided when Jupyter loads this file
c.ServerApp.kernel_websocket_connection_class = NoDelayConnection
