// Friends, lightly: the invitations to this account in the lobby (join or decline), inviting a
// named player from the waiting room, and blocking a player from their page.

import { account, call } from "./account.js";
import { $, page, playerName, tableId } from "./state.js";
import { answerError, sep, t } from "./words.js";

let invitations = [];

/** The lobby's invitations, fetched again with its tables (none unless signed in). */
export async function loadInvitations() {
  if (!account.name) { invitations = []; renderInvitations(); return; }
  const { ok, answer } = await call("GET", "/api/invitations");
  invitations = ok ? answer.invitations : [];
  renderInvitations();
}

export function renderInvitations() {
  $("#invitations").hidden = invitations.length === 0;
  $("#invitation-list").replaceChildren(...invitations.map((invitation) => {
    const item = document.createElement("li");
    const words = document.createElement("span");
    words.textContent = t("invited_by", { name: invitation.from }) + sep() + t("players_n", { n: invitation.players })
      + (invitation.rated ? sep() + t("rated_tag") : "");  // a name is text, never markup
    const join = document.createElement("a");
    join.href = `/t/${encodeURIComponent(invitation.table)}`;
    join.className = "join-link";
    join.textContent = t("join_table");
    const decline = document.createElement("button");
    decline.type = "button";
    decline.className = "link-dark";
    decline.textContent = t("decline");
    decline.addEventListener("click", async () => {
      await call("DELETE", `/api/invitations/${invitation.id}`);
      loadInvitations();
    });
    item.append(words, " ", join, " ", decline);
    return item;
  }));
}

/** The waiting room's invitation form: for a signed-in player seated at a table with a free seat. */
export function renderInviteForm() {
  const table = page.state.table;
  $("#invite-form").hidden = !account.name || table.you === null || !table.seats.some((place) => place.open);
}

async function invite(event) {
  event.preventDefault();
  const name = event.target.name.value.trim();
  const { ok, answer } = await call("POST", `/api/tables/${encodeURIComponent(tableId)}/invite`, { name });
  $("#invite-note").textContent = ok ? t("invited", { name: answer.invited }) : answerError(answer);
  if (ok) event.target.name.value = "";
}

/** On another player's page, signed in: block them, or unblock. */
export async function renderBlock() {
  const button = $("#block");
  button.hidden = !account.name || !playerName || account.name.toLowerCase() === playerName.toLowerCase();
  if (button.hidden) return;
  const { ok, answer } = await call("GET", "/api/blocks");
  const blocked = ok && answer.blocked.some((name) => name.toLowerCase() === playerName.toLowerCase());
  button.dataset.blocked = blocked ? "1" : "";
  button.textContent = t(blocked ? "unblock" : "block");
}

async function toggleBlock() {
  const blocked = Boolean($("#block").dataset.blocked);
  const { ok, answer } = blocked
    ? await call("DELETE", `/api/blocks/${encodeURIComponent(playerName)}`)
    : await call("POST", "/api/blocks", { name: playerName });
  $("#profile-error").textContent = ok ? "" : answerError(answer);
  renderBlock();
}

export function wireFriends() {
  $("#invite-form").addEventListener("submit", invite);
  $("#block").addEventListener("click", toggleBlock);
}
