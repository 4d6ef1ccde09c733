-- grail rules files in Neovim: put this file in ~/.config/nvim/plugin/ (or
-- require it from init.lua). It registers the `grail` filetype for `.rules`
-- files and starts `grail lsp` for them with the built-in LSP client.
vim.filetype = vim.filetype or {}
if vim.filetype.add then
  vim.filetype.add({ extension = { rules = "grail" } })
else
  vim.cmd("autocmd BufRead,BufNewFile *.rules setfiletype grail")
end

vim.api.nvim_create_autocmd("FileType", {
  pattern = "grail",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    local config = {
      name = "grail",
      cmd = { "grail", "lsp" },
      root_dir = vim.fs and vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)) or vim.fn.getcwd(),
    }
    if vim.lsp.start then
      vim.lsp.start(config)
    else
      local id = vim.lsp.start_client(config)
      if id then
        vim.lsp.buf_attach_client(args.buf, id)
      end
    end
  end,
})
