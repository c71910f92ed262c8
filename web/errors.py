"""Every API error is JSON with one sentence a player understands and the right status."""

from __future__ import annotations

import logging

from flask import Flask, jsonify
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from companion.errors import CompanionError

log = logging.getLogger(__name__)


class ApiError(CompanionError):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


FRIENDLY = {
    400: "That request could not be read; reload the page and try again.",
    404: "There is nothing at that address.",
    405: "That address does not accept this kind of request.",
    413: "That request is too large.",
}


def install(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> ResponseReturnValue:
        return jsonify(error=error.message), error.status

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        status = error.code or 500
        return jsonify(error=FRIENDLY.get(status, error.description)), status

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> ResponseReturnValue:
        log.exception("unexpected error in a request")
        return jsonify(error="Something went wrong on the companion; nothing was changed."), 500
