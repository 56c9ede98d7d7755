# priority_treeshare.so: the Slurm 22.05 priority plugin, built out of tree
# against $(SLURM_SRC) (Debian's source, configured with Debian's flags:
# its config.h) and libtreeshare.
#
#   make build/lib/slurm/priority_treeshare.so
#   make install-plugin [PLUGINDIR=/usr/local/lib/slurm] [DESTDIR=...]
#
# Slurm's headers include "config.h" and "src/common/..."; -iquote . puts
# the repository's own "src/..." first and no -Isrc is given, so Slurm's
# config.h can never be shadowed by a file of ours.
PT_DIR := plugins/priority_treeshare
PT_SRCS := $(wildcard $(PT_DIR)/*.c)
PT_OBJS := $(patsubst $(PT_DIR)/%.c,$(BUILD)/obj/$(PT_DIR)/%.o,$(PT_SRCS))
PT_SO := $(BUILD)/lib/slurm/priority_treeshare.so
PT_CFLAGS := $(filter-out -Isrc,$(BASE_CFLAGS)) -pthread -iquote . \
	-I$(SLURM_SRC)
# -z now: every symbol bound at load, so a missing one fails there, not in
# the middle of a cycle (slurmctld-only ones are weak).  -z nodelete: Slurm
# unloads and reloads a plugin whose init() failed; statics survive so the
# refusal is logged once (error_once.c).  And from 24.11 slurmctld calls
# the plugin after unloading it (priority_treeshare.c, enter()): the code
# must still be there to refuse the call (ts-harness -F checks it).
PT_LDFLAGS := -shared -pthread -Wl,--version-script=$(PT_DIR)/exports.map \
	-Wl,-z,relro -Wl,-z,now -Wl,-z,nodelete

all: $(PT_SO)

$(BUILD)/obj/$(PT_DIR)/%.o: $(PT_DIR)/%.c $(wildcard $(PT_DIR)/*.h) \
		$(wildcard src/*.h) $(SLURM_SRC)/config.h
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) $(CFLAGS) $(LTO) -c -o $@ $<

$(PT_SO): $(PT_OBJS) $(LIBTS) $(PT_DIR)/exports.map $(PT_DIR)/module.mk
	@mkdir -p $(dir $@)
	$(CC) $(PT_LDFLAGS) $(CFLAGS) $(LTO) -o $@ $(PT_OBJS) $(LIBTS) -lm

.PHONY: install-plugin
install-plugin: $(PT_SO)
	install -d $(DESTDIR)$(PLUGINDIR)
	install -m 0755 $(PT_SO) $(DESTDIR)$(PLUGINDIR)/priority_treeshare.so

# priority_multifactor.so of package treeshare-as-multifactor (debian/):
# the same objects, but priority_treeshare.c compiled again with
# -DTS_AS_MULTIFACTOR (plugin_type "priority/multifactor", a line at
# start saying so).  Its own directory: never in a PluginDir before
# Debian's, where it would hide Debian's priority/multifactor.
PT_MF_SO := $(BUILD)/lib/slurm-as-multifactor/priority_multifactor.so
PT_MF_OBJ := $(BUILD)/obj/$(PT_DIR)/as-multifactor/priority_treeshare.o

all: $(PT_MF_SO)

$(PT_MF_OBJ): $(PT_DIR)/priority_treeshare.c $(wildcard $(PT_DIR)/*.h) \
		$(wildcard src/*.h) $(SLURM_SRC)/config.h
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) $(CFLAGS) $(LTO) -DTS_AS_MULTIFACTOR -c -o $@ $<

$(PT_MF_SO): $(filter-out %/priority_treeshare.o,$(PT_OBJS)) $(PT_MF_OBJ) \
		$(LIBTS) $(PT_DIR)/exports.map $(PT_DIR)/module.mk
	@mkdir -p $(dir $@)
	$(CC) $(PT_LDFLAGS) $(CFLAGS) $(LTO) -o $@ $(filter %.o,$^) $(LIBTS) -lm
