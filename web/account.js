// @ts-check
// The account page (/account): sign up or log in when logged out; the account's name, a link
// to its profile and a log-out button when logged in. The session is an HttpOnly cookie the
// script never sees (docs/api.md, "Accounts").
import { $, api } from './common.js';
import { t } from './i18n.js';

/** Shows the page for the session there is (or none). */
async function show() {
  $('#account-error').textContent = '';
  let me = null;
  try {
    me = await api('/api/account');
  } catch { /* 401: logged out */ }
  $('#account-status').textContent = '';
  $('#logged-in').hidden = !me;
  $('#logged-out').hidden = !!me;
  if (me) {
    $('#logged-in-as').textContent = t('account-logged-in', { name: me.name });
    $('#profile-link').href = `/@/${encodeURIComponent(me.name)}`;
  }
}

/** @param {string} form @param {string} path */
function submit(form, path) {
  const el = /** @type {HTMLFormElement} */ ($(form));
  el.addEventListener('submit', async (e) => {
    e.preventDefault();
    const data = new FormData(el);
    try {
      await api(path, { name: String(data.get('name')), password: String(data.get('password')) });
      el.reset();
      await show();
    } catch (err) {
      $('#account-error').textContent = err instanceof Error ? err.message : String(err);
    }
  });
}

submit('#signup', '/api/account/signup');
submit('#login', '/api/account/login');
$('#logout').addEventListener('click', async () => {
  await api('/api/account/logout', {}).catch((err) => { $('#account-error').textContent = err.message; });
  await show();
});
show();
