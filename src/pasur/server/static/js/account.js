// The account this browser is signed in to, if any (playing needs none): signing up, in and out,
// and the account's dialog (log out everywhere, a new password, the data, deleting it). The
// session is an HttpOnly cookie the page never reads; what changes something repeats the CSRF
// token the server gave with the account.

import { $ } from "./state.js";
import { answerError, t } from "./words.js";

/** The account signed in (its name) and the token its requests repeat; both null when none. */
export const account = { name: null, csrf: null };
/** What else the page redraws when the account changes (signed in or out). */
export const accountWatchers = [];

/** A request as the account: JSON, with the CSRF token its session repeats; whether it was
 *  answered ok, the answer, and whether it failed to reach the server at all. */
export async function call(method, path, body = null) {
  const headers = { "content-type": "application/json" };
  if (account.csrf) headers["x-csrf-token"] = account.csrf;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined }).catch(() => null);
  const answer = response ? await response.json().catch(() => ({})) : {};
  return { ok: Boolean(response && response.ok), answer, failed: !response };
}

/** The header's account button and the dialog, as signed in or not (again after a language change). */
export function renderAccount() {
  $("#account-link-text").textContent = account.name ?? t("sign_in");
  $("#account-out").hidden = Boolean(account.name);
  $("#account-in").hidden = !account.name;
  $("#account-name").textContent = account.name ?? "";
  $("#my-games").href = account.name ? `/p/${encodeURIComponent(account.name)}` : "/";
  accountWatchers.forEach((watcher) => watcher());
  if (!account.name) return;
  localStorage.setItem("pasur-name", account.name);  // the name a table is joined under
  document.querySelectorAll("#create-form input[name=name], #join-form input[name=name]").forEach((field) => {
    field.value = account.name;
  });
}

function signedIn(answer) {
  account.name = answer.name;
  account.csrf = answer.csrf;
  renderAccount();
}

function signedOut() {
  account.name = null;
  account.csrf = null;
  renderAccount();
}

/** Ask the server which account this browser is signed in to. */
export async function loadAccount() {
  const { ok, answer } = await call("GET", "/api/me");
  if (ok) signedIn(answer);
  else signedOut();
}

/** The matches this browser played before signing in (its seat tokens): kept under the account. */
async function keepGuestMatches() {
  const tokens = {};
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith("pasur-token-")) tokens[key.slice("pasur-token-".length)] = localStorage.getItem(key);
  }
  if (Object.keys(tokens).length) await call("POST", "/api/account/matches", { tokens: Object.fromEntries(Object.entries(tokens).slice(-500)) });
}

/** Say what the server answered, or close the dialog when it was done. */
function said(ok, answer, done) {
  $("#account-error").textContent = ok ? "" : answerError(answer);
  if (ok) done();
}

export function wireAccount() {
  const dialog = $("#account-dialog");
  $("#account-link").addEventListener("click", () => {
    $("#account-error").textContent = "";
    renderAccount();
    dialog.showModal();
  });
  $("#sign-in-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const creating = event.submitter && event.submitter.id === "sign-up";
    const body = { name: form.name.value.trim(), password: form.password.value };
    const { ok, answer } = await call("POST", creating ? "/api/account" : "/api/session", body);
    said(ok, answer, async () => {
      form.password.value = "";
      signedIn(answer);
      await keepGuestMatches();  // before the dialog closes: the account's page then lists them
      dialog.close();
    });
  });
  for (const [id, path] of [["#log-out", "/api/session"], ["#log-out-everywhere", "/api/sessions"]]) {
    $(id).addEventListener("click", async () => {
      const { ok, answer } = await call("DELETE", path);
      said(ok, answer, () => { signedOut(); dialog.close(); });
    });
  }
  $("#password-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const { ok, answer } = await call("POST", "/api/account/password", { old: form.old.value, new: form.new.value });
    said(ok, answer, () => { form.reset(); signedIn(answer); $("#account-error").textContent = t("password_changed"); });
  });
  $("#delete-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const { ok, answer } = await call("DELETE", "/api/account", { password: event.target.password.value });
    said(ok, answer, () => { event.target.reset(); signedOut(); dialog.close(); });
  });
}
