package dev.polygpu.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;

/**
 * The value of an on/off option written with one ({@code --quiet=false}, {@code --warm-up no}): true, yes and on,
 * or false, no and off, in any case. Give the option {@code arity = "0..1"} and {@code fallbackValue = "true"} so
 * that the bare name means on.
 */
public final class YesNo implements ITypeConverter<Boolean> {
    @Override
    public Boolean convert(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> Boolean.TRUE;
            case "false", "no", "off" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("must be true or false, got '" + value + "'");
        };
    }
}
