-- A real editor client for `.ci/run`: Neovim, headless, opens a broken rules
-- file with its built-in LSP client attached to `grail lsp`, and checks that
-- the syntax error arrives as a diagnostic on the right line.
--
--   GRAIL=target/release/grail RULES=tests/lsp/broken/broken.rules \
--     nvim --headless -u NONE -i NONE -c 'luafile tests/nvim/diagnostics.lua'
--
-- Neovim 0.8 and later start the client with `vim.lsp.start`; Debian 12's
-- 0.7 has only `vim.lsp.start_client` + `vim.lsp.buf_attach_client`, the
-- same built-in client one level lower.
local grail = os.getenv("GRAIL") or "grail"
local file = os.getenv("RULES") or "tests/lsp/broken/broken.rules"
local want_line = tonumber(os.getenv("LINE") or "10") -- 0-based: `let = 3`

local function fail(msg)
  io.stderr:write("nvim lsp check: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local config = { name = "grail", cmd = { grail, "lsp" }, root_dir = vim.fn.getcwd() }
local client
if vim.lsp.start then
  client = vim.lsp.start(config)
else
  client = vim.lsp.start_client(config)
  if client then
    vim.lsp.buf_attach_client(buf, client)
  end
end
if not client then
  fail("could not start `" .. grail .. " lsp`")
end

local arrived = vim.wait(30000, function()
  return #vim.diagnostic.get(buf) > 0
end, 50)
if not arrived then
  fail("no diagnostics arrived within 30 s")
end

local found = false
for _, d in ipairs(vim.diagnostic.get(buf)) do
  io.stdout:write(string.format("%s:%d:%d: %s\n", file, d.lnum + 1, d.col + 1, d.message:gsub("\n.*", "")))
  if d.lnum == want_line and d.severity == vim.diagnostic.severity.ERROR then
    found = true
  end
end
if not found then
  fail("no error on line " .. (want_line + 1))
end
io.stdout:write("nvim lsp check: diagnostics arrived\n")
vim.lsp.stop_client(client)
vim.cmd("qall!")
