"""The Strawberry ASGI view: graphql-transport-ws only, our context, our offline GraphiQL."""

from __future__ import annotations

from datetime import timedelta

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.exceptions import ConnectionRejectionError
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.types.unset import UnsetType

from app.errors import TrellisError
from app.services import Services
from schema.context import Context
from schema.graphiql import PAGE

_SOCKET_KEY = "trellis.socket_key"  # the key a counted WebSocket was opened with


class TrellisGraphQL(GraphQL[Context, None]):
    def __init__(self, schema: object, graphiql: bool = True) -> None:
        super().__init__(
            schema,  # type: ignore[arg-type]
            graphql_ide="graphiql" if graphiql else None,
            # The legacy graphql-ws protocol had an authentication bypass; never offer it.
            subscription_protocols=(GRAPHQL_TRANSPORT_WS_PROTOCOL,),
            connection_init_wait_timeout=timedelta(seconds=10),
            multipart_uploads_enabled=False,
            max_subscriptions_per_connection=20,
        )

    async def get_context(
        self, request: Request | WebSocket, response: Response | WebSocket
    ) -> Context:
        services: Services = request.app.state.services
        return Context(services=services, request=request, response=response)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            counted = scope.get(_SOCKET_KEY)
            if counted is not None:
                scope["app"].state.services.sockets.close(counted)

    async def on_ws_connect(self, context: Context) -> UnsetType | dict[str, object] | None:
        """Authenticate the socket, and count it against its key's open sockets."""
        try:
            principal = await context.principal()
            context.services.sockets.open(principal.key_id)
        except TrellisError as error:
            raise ConnectionRejectionError(
                {"code": error.code.value, "message": error.message}
            ) from None
        context.request.scope[_SOCKET_KEY] = principal.key_id
        return None

    async def render_graphql_ide(self, request: Request) -> Response:
        return HTMLResponse(PAGE)
