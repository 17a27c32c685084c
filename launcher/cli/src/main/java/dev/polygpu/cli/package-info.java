/**
 * What every polygpu command line shares, on picocli: {@link dev.polygpu.cli.CommandLines} sets a command up so
 * that {@code --name=value} and {@code --name value} both work, {@code --help} is generated from its options, and a
 * mistake is reported as {@code "<command>: <what was wrong>"} with what to write instead (the closest option for a
 * misspelt one, {@link dev.polygpu.cli.Suggestion}) and exit status 2. The launcher, {@code polygpu worker},
 * {@code polygpu simulate}, {@code polygpu notebook} and the bench mains use it; it depends on nothing of polygpu's.
 */
package dev.polygpu.cli;
