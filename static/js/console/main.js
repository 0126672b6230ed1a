/* NetShop support console: the live queue, the escalation detail page and conversations.
 *
 * ES modules, no build step (loaded with <script type="module">, so deferred and strict).
 * The server renders every row and panel; these modules only listen on the console socket
 * and ask the server for the fresh HTML of what changed. Updates are idempotent re-reads, so
 * an event that arrives twice or late does no harm, and after a dropped socket one re-read
 * of the page's state brings it up to date (channel layers deliver at most once: nothing is
 * replayed from the socket). A failed re-read is shown to the operator and retried.
 *
 *   state.js    the shared live state (window.netshopConsole)
 *   socket.js   connect, reconnect with back-off, stop on the signed-out close codes
 *   http.js     fragment reads and form posts that report failures instead of hiding them
 *   retry.js    a refresh that says it failed and tries again with back-off
 *   notice.js   the banners and messages the operator sees (text from the template)
 *   keyboard.js single-key shortcuts
 *   queue.js    the queue page; detail.js the escalation page
 *   thread.js   a conversation's thread, live (both pages below)
 *   conversation.js one conversation: its thread and the composer
 */

import { conversationPage } from "./conversation.js";
import { detailPage } from "./detail.js";
import { queuePage } from "./queue.js";
import { state } from "./state.js";

window.netshopConsole = state; // read by browser tests

const queue = document.getElementById("queue-page");
if (queue) queuePage(queue);
const detail = document.getElementById("detail-page");
if (detail) detailPage(detail);
const conversation = document.getElementById("conversation-page");
if (conversation) conversationPage(conversation);
