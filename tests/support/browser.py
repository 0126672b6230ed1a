"""Headless Chromium (Debian's, driven by Playwright) for browser tests against a live server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Page,
    expect,
    sync_playwright,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 20_000  # generous for a loaded machine, short enough to fail a broken page fast
# Runs in every document before its own scripts (Playwright's init scripts are not subject to
# the page's content security policy): collects each violation the browser reports.
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__cspViolations.push(
    event.effectiveDirective + " blocked " + (event.blockedURI || "inline") +
    " at " + event.documentURI + (event.sample ? " (" + event.sample + ")" : "")
  );
}, true);
"""


@contextmanager
def chromium() -> Iterator[Browser]:
    expect.set_options(timeout=TIMEOUT_MS)  # assertions keep their own default (5 s) otherwise
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Session:
    """One person's browser: an isolated context (own cookies) and its page.

    Every JavaScript dialog, uncaught page error and content security policy violation is
    recorded: a page that opens an alert, throws or has something blocked is broken, whatever
    the test is looking at.
    """

    context: BrowserContext
    page: Page
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def shot(self, directory: Path, name: str) -> Path:
        path = directory / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def csrf_token(self) -> str:
        return self.page.locator("input[name=csrfmiddlewaretoken]").first.input_value()

    def set_marker(self) -> None:
        """Tag the loaded document; ``kept_marker`` is false once anything reloads it."""
        self.page.evaluate("window.__noReload = true")

    def kept_marker(self) -> bool:
        return bool(self.page.evaluate("window.__noReload === true"))

    def csp_violations(self) -> list[str]:
        """The violations the current document has reported so far."""
        return list(self.page.evaluate("window.__cspViolations || []"))


def new_session(browser: Browser, base_url: str, *, bypass_csp: bool = False) -> Session:
    """``bypass_csp`` lets a test put its own inline script in (axe-core); the pages' policy is
    then not enforced, so such a context proves nothing about it."""
    context = browser.new_context(
        base_url=base_url,
        bypass_csp=bypass_csp,
        locale="en-US",
        timezone_id="Asia/Tokyo",
        viewport={"width": 1280, "height": 900},
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    session = Session(context=context, page=page)

    def on_dialog(dialog: Dialog) -> None:
        session.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda error: session.errors.append(str(error)))
    page.on("console", lambda message: _record_csp_report(session, message))
    return session


def wait_for_js(page: Page, expression: str, timeout_ms: int = TIMEOUT_MS) -> None:
    """Wait until ``expression`` (or a function's result) is truthy in the page.

    Use this, not ``page.wait_for_function``: Playwright evaluates that predicate with
    ``eval`` in the page, which our content security policy refuses (no 'unsafe-eval').
    ``page.evaluate`` goes through DevTools, outside the page's policy.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_ms} ms: {expression}")
        page.wait_for_timeout(50)


def _record_csp_report(session: Session, message: ConsoleMessage) -> None:
    """Chromium also logs each violation to the console, for documents the listener missed."""
    if "Content Security Policy" in message.text:
        session.errors.append(f"CSP: {message.text}")


def log_in(
    browser: Browser, base_url: str, username: str, password: str, *, bypass_csp: bool = False
) -> Session:
    """A fresh context signed in through the real login form."""
    session = new_session(browser, base_url, bypass_csp=bypass_csp)
    page = session.page
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("#login-button")
    expect(page).not_to_have_url(f"{base_url}/accounts/login/")
    return session
